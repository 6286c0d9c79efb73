// Preloaded (`node --import`) into a process a benchmark times: when BENCH_USAGE_FILE is set, the
// process writes its own resource use there as it exits (CPU time of all its threads, peak RSS).
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ user_s: u.userCPUTime / 1e6, system_s: u.systemCPUTime / 1e6, max_rss_kb: u.maxRSS }),
    );
  });
}
