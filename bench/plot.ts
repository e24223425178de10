/** A log-log line chart of time against N per contender, drawn as SVG and rendered to PNG. */
import { writeFileSync } from 'node:fs';

import { Resvg } from '@resvg/resvg-js';

export interface Series {
	label: string;
	color: string;
	/** Drawn thinner and translucent: an earlier line beside the newest. */
	faded?: boolean;
	points: Array<{ x: number; y: number }>;
}

const WIDTH = 900;
const HEIGHT = 540;
const MARGIN = { top: 70, right: 30, bottom: 70, left: 90 };

function escapeXml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function decadesAround(values: number[]): { low: number; high: number } {
	return {
		low: Math.floor(Math.log10(Math.min(...values))),
		high: Math.ceil(Math.log10(Math.max(...values))),
	};
}

function formatTick(value: number, unit: string): string {
	if (unit === 'ms' && value >= 1000) return `${value / 1000} s`;
	if (unit === 'ms') return `${value} ms`;
	if (value >= 1_000_000) return `${value / 1_000_000}M`;
	return value >= 1000 ? `${value / 1000}k` : String(value);
}

export function lineChartSvg(options: {
	title: string;
	subtitle?: string;
	xLabel: string;
	yLabel: string;
	series: Series[];
}): string {
	const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
	const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
	const allPoints = options.series.flatMap((series) => series.points);
	const xRange = decadesAround(allPoints.map((point) => point.x));
	const yRange = decadesAround(allPoints.map((point) => point.y));
	if (xRange.high === xRange.low) xRange.high++;
	if (yRange.high === yRange.low) yRange.high++;
	const xOf = (x: number) =>
		MARGIN.left + ((Math.log10(x) - xRange.low) / (xRange.high - xRange.low)) * plotWidth;
	const yOf = (y: number) =>
		MARGIN.top +
		plotHeight -
		((Math.log10(y) - yRange.low) / (yRange.high - yRange.low)) * plotHeight;

	const parts: string[] = [
		`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
		`<text x="${WIDTH / 2}" y="28" text-anchor="middle" font-size="20" font-weight="bold">${escapeXml(options.title)}</text>`,
		`<text x="${WIDTH / 2}" y="48" text-anchor="middle" font-size="13" fill="#555555">${escapeXml(options.subtitle ?? '')}</text>`,
	];
	for (let decade = xRange.low; decade <= xRange.high; decade++) {
		const x = xOf(10 ** decade);
		parts.push(
			`<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + plotHeight}" stroke="#e0e0e0"/>`,
			`<text x="${x}" y="${MARGIN.top + plotHeight + 22}" text-anchor="middle" font-size="14">${formatTick(10 ** decade, '')}</text>`,
		);
	}
	for (let decade = yRange.low; decade <= yRange.high; decade++) {
		const y = yOf(10 ** decade);
		parts.push(
			`<line x1="${MARGIN.left}" y1="${y}" x2="${MARGIN.left + plotWidth}" y2="${y}" stroke="#e0e0e0"/>`,
			`<text x="${MARGIN.left - 8}" y="${y + 5}" text-anchor="end" font-size="14">${formatTick(10 ** decade, 'ms')}</text>`,
		);
	}
	parts.push(
		`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#555555"/>`,
		`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 20}" text-anchor="middle" font-size="15">${escapeXml(options.xLabel)}</text>`,
		`<text transform="translate(24 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" font-size="15">${escapeXml(options.yLabel)}</text>`,
	);
	for (const [index, series] of options.series.entries()) {
		const points = [...series.points].sort((a, b) => a.x - b.x);
		const path = points
			.map((point) => `${xOf(point.x).toFixed(1)},${yOf(point.y).toFixed(1)}`)
			.join(' ');
		const style = series.faded
			? { width: 2, opacity: 0.45, dash: ' stroke-dasharray="6 4"' }
			: { width: 3, opacity: 1, dash: '' };
		parts.push(
			`<polyline points="${path}" fill="none" stroke="${series.color}" stroke-width="${style.width}" stroke-opacity="${style.opacity}"${style.dash}/>`,
		);
		for (const point of points) {
			parts.push(
				`<circle cx="${xOf(point.x)}" cy="${yOf(point.y)}" r="5" fill="${series.color}" fill-opacity="${style.opacity}"/>`,
			);
		}
		const legendY = MARGIN.top + 20 + index * 24;
		parts.push(
			`<rect x="${MARGIN.left + 16}" y="${legendY - 11}" width="22" height="6" fill="${series.color}" fill-opacity="${style.opacity}"/>`,
			`<text x="${MARGIN.left + 46}" y="${legendY - 2}" font-size="14">${escapeXml(series.label)}</text>`,
		);
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">${parts.join('')}</svg>`;
}

export function writePng(svg: string, path: string): void {
	const png = new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } })
		.render()
		.asPng();
	writeFileSync(path, png);
}
