import { writeFileSync } from 'node:fs';
import { otherProcessesCores, sampleMachine, type MachineSample } from './machine.js';

/**
 * The bench's output: one table row per figure, a line per section with the machine's load, the
 * same in bench/results.json, and the exit code (1 when a goal does not hold).
 */
interface Row {
  section: string;
  subject: string;
  figure: string;
  baseline: string;
  ratio: string;
  goal: string;
  ok: boolean;
}

/** A row as a section records it; the report adds the section's name. */
interface RowInput {
  subject: string;
  figure: string;
  baseline?: string;
  ratio?: number;
  goal: string;
  ok: boolean;
}
export type Recorder = (row: RowInput) => void;

/**
 * A timed section ran on a busy machine when processes outside the bench used more than this
 * (cores' worth) while it ran: a missed goal there may be noise. The load average cannot say
 * so on its own, since the bench's own processes keep it near 2 on two cores.
 */
const BUSY_OTHERS = 0.2;
/** Where the CPU of other processes cannot be read (no /proc): the 1-minute load at the start. */
const BUSY_LOAD = 1.5;

interface SectionRecord {
  section: string;
  timed: boolean;
  seconds: number;
  load_start: number;
  load_end: number;
  other_processes_cores?: number;
  busy: boolean;
}

export class Report {
  private readonly rows: Row[] = [];
  private readonly sections: SectionRecord[] = [];

  /** `timed`: its figures are durations or rates, which a busy machine moves (sizes and counts it does not). */
  async section(section: string, timing: 'timed' | 'untimed', measure: (record: Recorder) => Promise<void>): Promise<void> {
    const start = sampleMachine();
    await measure((row) => this.rows.push({ section, ...row, baseline: row.baseline ?? '', ratio: row.ratio === undefined ? '' : row.ratio.toFixed(2) }));
    this.sections.push(sectionRecord(section, timing === 'timed', start, sampleMachine()));
    console.log(describe(this.sections.at(-1)!));
  }

  /** Prints the table and the verdict, writes bench/results.json; returns the exit code. */
  finish(): number {
    const columns = ['section', 'subject', 'figure', 'baseline', 'ratio', 'goal'] as const;
    const widths = columns.map((column) => Math.max(column.length, ...this.rows.map((row) => row[column].length)));
    const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
    console.log(`\n${line([...columns])} ok`);
    console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|---`);
    for (const row of this.rows) console.log(`${line(columns.map((column) => row[column]))} ${row.ok ? 'yes' : 'NO'}`);
    writeFileSync(
      'bench/results.json',
      `${JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, sections: this.sections, rows: this.rows }, null, 2)}\n`,
    );
    const failed = this.rows.filter((row) => !row.ok);
    const busy = new Set(this.sections.filter((s) => s.busy).map((s) => s.section));
    const missed = failed.map((row) => `${row.section} ${row.subject}${busy.has(row.section) ? ' (machine busy: may be noise)' : ''}`);
    console.log(failed.length ? `\n${failed.length} goal(s) missed: ${missed.join(', ')}` : '\nevery goal holds');
    return failed.length ? 1 : 0;
  }
}

function sectionRecord(section: string, timed: boolean, start: MachineSample, end: MachineSample): SectionRecord {
  const others = otherProcessesCores(start, end);
  return {
    section,
    timed,
    seconds: Math.round((end.at - start.at) / 100) / 10,
    load_start: start.load,
    load_end: end.load,
    ...(others === undefined ? {} : { other_processes_cores: Math.round(others * 100) / 100 }),
    busy: timed && (others === undefined ? start.load > BUSY_LOAD : others > BUSY_OTHERS),
  };
}

function describe(record: SectionRecord): string {
  const others = record.other_processes_cores === undefined ? '' : `, other processes ${record.other_processes_cores.toFixed(2)} cores`;
  const text = `${record.section.padEnd(14)} ${record.seconds.toFixed(1).padStart(5)} s, 1-min load ${record.load_start.toFixed(2)} → ${record.load_end.toFixed(2)}${others}`;
  if (!record.busy) return text;
  const why = record.other_processes_cores === undefined ? `1-min load > ${BUSY_LOAD} at the start` : `other processes used > ${BUSY_OTHERS} cores`;
  return `${text}\n${''.padEnd(15)}machine busy (${why}): a missed goal in this section may be noise`;
}
