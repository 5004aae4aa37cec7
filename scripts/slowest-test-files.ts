import type { Reporter, TestModule } from 'vitest/node'

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8)

/**
 * After a run, the test files that held a worker longest (environment, imports, hooks and tests
 * together), with where their time went: the first place to look when the run gets slow.
 */
export class SlowestTestFiles implements Reporter {
  constructor(private readonly count = 12) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const rows = testModules.map((module) => {
      const d = module.diagnostic()
      const setup = d.environmentSetupDuration + d.prepareDuration + d.setupDuration
      return {
        project: module.project.name,
        name: `${module.project.name}: ${module.relativeModuleId}`,
        setup,
        imports: d.collectDuration,
        tests: d.duration,
        total: setup + d.collectDuration + d.duration,
      }
    })
    if (rows.length < 2) return
    rows.sort((a, b) => b.total - a.total)
    const all = rows.reduce((sum, row) => sum + row.total, 0)
    const lines = rows
      .slice(0, this.count)
      .map(
        (r) =>
          `${seconds(r.total)}${seconds(r.setup)}${seconds(r.imports)}${seconds(r.tests)}  ${r.name}`,
      )
    const byProject = new Map<string, number>()
    for (const row of rows)
      byProject.set(row.project, (byProject.get(row.project) ?? 0) + row.total)
    const projects = [...byProject]
      .sort((a, b) => b[1] - a[1])
      .map(([name, total]) => `${name} ${seconds(total).trim()}`)
      .join(', ')
    console.log(
      [
        '',
        `Slowest test files (${rows.length} files took ${seconds(all).trim()} of worker time: ${projects}):`,
        `${'total'.padStart(8)}${'setup'.padStart(8)}${'imports'.padStart(8)}${'tests'.padStart(8)}  file`,
        ...lines,
        '',
      ].join('\n'),
    )
  }
}
