// Loaded into the benchmark's n8n with NODE_OPTIONS=--require (Node 20 refuses --cpu-prof and
// --expose-gc there). A loopback HTTP server on BENCH_PROBE_PORT, in n8n's main process only:
//   GET /gc               full garbage collection; answers {heapUsed}
//   GET /heap/start       samples process.memoryUsage().heapUsed every 10 ms from now on
//   GET /heap/stop        stops; answers {samples: [{at, bytes}]} (at: epoch ms)
//   GET /profile/start    starts V8's CPU profiler
//   GET /profile/stop     stops it; answers the profile (.cpuprofile JSON)
const http = require('node:http');
const { Session } = require('node:inspector');
const v8 = require('node:v8');
const vm = require('node:vm');

const port = Number(process.env.BENCH_PROBE_PORT);
const isN8nMain = /[\/]n8n$/.test(process.argv[1] ?? ''); // not its task runner

if (port && isN8nMain) {
	v8.setFlagsFromString('--expose-gc');
	const collectGarbage = vm.runInNewContext('gc');
	let heapSamples = [];
	let heapTimer = null;
	let profiler = null;

	const sampleHeap = () => heapSamples.push({ at: Date.now(), bytes: process.memoryUsage().heapUsed });
	const routes = {
		'/gc': (reply) => {
			collectGarbage();
			collectGarbage();
			reply({ heapUsed: process.memoryUsage().heapUsed });
		},
		'/heap/start': (reply) => {
			heapSamples = [];
			sampleHeap();
			clearInterval(heapTimer);
			heapTimer = setInterval(sampleHeap, 10);
			heapTimer.unref();
			reply({ ok: true });
		},
		'/heap/stop': (reply) => {
			clearInterval(heapTimer);
			heapTimer = null;
			sampleHeap();
			reply({ samples: heapSamples });
		},
		'/profile/start': (reply) => {
			profiler = new Session();
			profiler.connect();
			profiler.post('Profiler.enable');
			profiler.post('Profiler.setSamplingInterval', { interval: 250 });
			profiler.post('Profiler.start', () => reply({ ok: true }));
		},
		'/profile/stop': (reply) => {
			const running = profiler;
			profiler = null;
			running.post('Profiler.stop', (error, result) => {
				running.disconnect();
				reply(error ? { error: String(error) } : result.profile);
			});
		},
	};

	const server = http.createServer((request, response) => {
		const route = routes[request.url];
		const reply = (body) => {
			response.writeHead(route ? 200 : 404, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
		};
		if (route) route(reply);
		else reply({ error: `no route ${request.url}` });
	});
	server.on('error', (error) => console.error(`Benchmark probe: ${error.message}`));
	server.listen(port, '127.0.0.1');
	server.unref();
}
