import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/**
 * The machine the bench shares: how busy it is (load average, and the CPU that processes outside
 * the bench used), and where DynamoDB Local runs.
 */

/** CPU time in clock ticks since boot, summed over all cores: all of it, the busy part, and the bench's process tree's part. */
interface CpuTicks {
  total: number;
  busy: number;
  ours: number;
  cores: number;
}

export interface MachineSample {
  at: number;
  load: number;
  cpu?: CpuTicks;
}

/** Fields after a /proc/<pid>/stat line's `(comm)`, which may itself hold spaces and parentheses. */
const statFields = (pid: string): string[] => {
  const line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return line.slice(line.lastIndexOf(')') + 2).split(' ');
};

/**
 * The bench's part: this process and its descendants (DynamoDB Local, esbuild's service), with
 * the children it has already waited for (the cold-import processes). Undefined where there is
 * no /proc (not Linux).
 */
function cpuTicks(): CpuTicks | undefined {
  try {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n');
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = lines[0]!.trim().split(/\s+/).slice(1, 9).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const busy = user + nice + system + irq + softirq + steal;
    const parents = new Map<string, string>();
    const ticks = new Map<string, number>();
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const fields = statFields(pid);
        // ppid is the line's field 4, utime stime cutime cstime its fields 14–17.
        parents.set(pid, fields[1]!);
        ticks.set(
          pid,
          fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0),
        );
      } catch {
        // It exited while we read: its time is in its parent's cutime, or was never ours.
      }
    }
    const ours = new Set([String(process.pid)]);
    for (let grown = true; grown;) {
      grown = false;
      for (const [pid, parent] of parents)
        if (!ours.has(pid) && ours.has(parent)) {
          ours.add(pid);
          grown = true;
        }
    }
    return {
      total: busy + idle + iowait,
      busy,
      ours: [...ours].reduce((sum, pid) => sum + (ticks.get(pid) ?? 0), 0),
      cores: lines.filter((line) => /^cpu\d/.test(line)).length,
    };
  } catch {
    return undefined;
  }
}

export const sampleMachine = (): MachineSample => ({ at: performance.now(), load: loadavg()[0]!, cpu: cpuTicks() });

/**
 * Cores' worth of CPU that processes outside the bench used between two samples (0 on a quiet
 * machine). The load average cannot tell this: it counts the bench's own processes too.
 */
export function otherProcessesCores(start: MachineSample, end: MachineSample): number | undefined {
  if (!start.cpu || !end.cpu) return undefined;
  const elapsed = end.cpu.total - start.cpu.total;
  const others = end.cpu.busy - start.cpu.busy - (end.cpu.ours - start.cpu.ours);
  return elapsed > 0 ? Math.max(0, others / elapsed) * end.cpu.cores : undefined;
}

/** Pins DynamoDB Local (all its threads) to the last core and this process to the others; `restore` undoes it. */
export function pinApart(javaPid: number | undefined): { description: string; restore(): void } {
  const cores = availableParallelism();
  const taskset = (list: string, pid: number) => execFileSync('taskset', ['-a', '-cp', list, String(pid)], { stdio: 'ignore' });
  if (javaPid === undefined || cores < 2) return { description: 'shared cores (one core, or DynamoDB Local not ours)', restore: () => {} };
  const all = `0-${cores - 1}`;
  const ours = cores === 2 ? '0' : `0-${cores - 2}`;
  try {
    taskset(String(cores - 1), javaPid);
    taskset(ours, process.pid);
  } catch {
    return { description: 'shared cores (taskset unavailable)', restore: () => {} };
  }
  return {
    description: `DynamoDB Local on core ${cores - 1}, handlers and raw loop on core${cores === 2 ? '' : 's'} ${ours}`,
    restore: () => {
      taskset(all, process.pid);
      taskset(all, javaPid);
    },
  };
}
