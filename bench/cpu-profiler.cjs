// Preloaded into n8n (NODE_OPTIONS=--require) by `bench/run.ts --profile`; Node 20 refuses
// --cpu-prof in NODE_OPTIONS. SIGUSR2 starts V8's CPU profiler, the next SIGUSR2 stops it and
// writes <BENCH_PROFILE_DIR>/<label>.cpuprofile, the label read from <BENCH_PROFILE_DIR>/label.
const { Session } = require('node:inspector');
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const directory = process.env.BENCH_PROFILE_DIR;
let session = null;

process.on('SIGUSR2', () => {
	if (session === null) {
		session = new Session();
		session.connect();
		session.post('Profiler.enable');
		session.post('Profiler.setSamplingInterval', { interval: 250 });
		session.post('Profiler.start');
		return;
	}
	const running = session;
	session = null;
	running.post('Profiler.stop', (error, result) => {
		running.disconnect();
		if (error) return;
		const label = readFileSync(join(directory, 'label'), 'utf8').trim();
		writeFileSync(join(directory, `${label}.cpuprofile`), JSON.stringify(result.profile));
	});
});
