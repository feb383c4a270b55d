// Preloaded (`--import`) into every process bench/scale.ts starts: when the bench dies without
// stopping it (SIGKILL, a crash), the process is reparented and ends itself within a second,
// so that no API process, worker or sandbox is left behind. Its timer does not hold the
// process open.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
}, 1000).unref();
