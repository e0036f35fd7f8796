// Fault injection (WireMock-style): rules that make matching API requests fail, wait, or lose
// their connection, `count` times. The control API itself is never faulted.

export interface FaultRuleInput {
  method?: string;
  /** Exact path, or a pattern where `*` matches one path segment and a trailing `**` the rest. */
  path: string;
  status?: number;
  delay_ms?: number;
  drop?: boolean;
  count?: number;
}

export interface FaultRule {
  id: string;
  method: string | null;
  path: string;
  status: number | null;
  delay_ms: number;
  drop: boolean;
  /** How many more requests it applies to. */
  remaining: number;
  matched: number;
}

function pathPattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((seg) => (seg === '**' ? '.*' : seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

export class FaultRules {
  private rules: Array<FaultRule & { pattern: RegExp }> = [];
  private seq = 0;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.rules = [];
    this.seq = 0;
  }

  add(input: FaultRuleInput): FaultRule {
    this.seq += 1;
    const rule = {
      id: `fault_${this.seq}`,
      method: input.method ? input.method.toUpperCase() : null,
      path: input.path,
      status: input.status ?? null,
      delay_ms: input.delay_ms ?? 0,
      drop: input.drop ?? false,
      remaining: input.count ?? 1,
      matched: 0,
      pattern: pathPattern(input.path),
    };
    this.rules.push(rule);
    return this.view(rule);
  }

  list(): FaultRule[] {
    return this.rules.map((r) => this.view(r));
  }

  clear(): void {
    this.rules = [];
  }

  /** The first rule matching the request, consumed once; undefined when none applies. */
  take(method: string, path: string): FaultRule | undefined {
    if (this.rules.length === 0) return undefined;
    const i = this.rules.findIndex((r) => (r.method === null || r.method === method) && r.pattern.test(path));
    if (i < 0) return undefined;
    const rule = this.rules[i]!;
    rule.remaining -= 1;
    rule.matched += 1;
    if (rule.remaining <= 0) this.rules.splice(i, 1);
    return this.view(rule);
  }

  private view(r: FaultRule & { pattern: RegExp }): FaultRule {
    const { pattern: _pattern, ...rest } = r;
    return { ...rest };
  }
}
