export declare class Doc {
  constructor(errors: string[]);
  errors: string[];
  toString(): string;
  compact(node: { kind: string }): { kind: string };
}
export declare function area(shape: { w: number; h: number }): number;
export declare class Sink {
  constructor(name: string);
  write(chunk: string): void;
  end(): void;
  close(): void;
}
