/** A spinner with a short text on stderr while waiting, on a terminal only; cleared when it stops. */
import type { IO } from './io.js'
import { printableLine } from './terminal-text.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

export class Spinner {
  private timer?: NodeJS.Timeout
  private frame = 0
  private text = ''

  constructor(
    private readonly io: IO,
    private readonly enabled: boolean,
  ) {}

  start(text: string): void {
    this.text = printableLine(text)
    if (!this.enabled || this.timer) return
    this.draw()
    this.timer = setInterval(() => this.draw(), 80)
    this.timer.unref()
  }

  update(text: string): void {
    // It may name a file: no control character of its name reaches the terminal.
    this.text = printableLine(text)
  }

  stop(): void {
    if (!this.timer) return
    clearInterval(this.timer)
    this.timer = undefined
    this.io.stderr.write('\r\x1b[2K')
  }

  private draw(): void {
    this.frame = (this.frame + 1) % FRAMES.length
    this.io.stderr.write(`\r\x1b[2K${FRAMES[this.frame]} ${this.text}`)
  }
}
