/** One line of the benchmark report: our implementation against one peer on one case. */
export interface Row {
  /** Bench group and case, e.g. `validators: persona body valid (is)`. */
  name: string;
  unit: 'ops/s';
  /** Median of the timed runs. */
  ours: number;
  /** Median of the timed runs. */
  peer: number;
  /** Peer library and version, e.g. `ajv 8.20.0`. */
  peer_name: string;
  /** ours / peer: above 1 means ours is faster. */
  ratio: number;
  ours_min: number;
  ours_max: number;
  peer_min: number;
  peer_max: number;
}

/** A bench module: runs its cases and returns its rows. bench/run.ts calls each in turn. */
export interface Bench {
  name: string;
  run(): Promise<Row[]>;
}
