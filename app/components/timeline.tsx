// A vertical list of the steps something goes through (a withdrawal: requested → processing →
// paid | failed): the steps done with their time, the current one marked, the ones still to come
// greyed. The state is said in words (aria-current, the step's text), colour only supports it.
import type { ReactNode } from 'react'
import { Icon, type IconName } from './icon'
import { cx } from './ui'

export type TimelineStep = {
  key: string
  title: ReactNode
  /** A line under the title: what happened, or what will. */
  detail?: ReactNode
  /** When it happened (a <time>), for steps that did. */
  at?: ReactNode
  state: 'done' | 'current' | 'upcoming' | 'failed'
}

const icons: Record<TimelineStep['state'], IconName | null> = {
  done: 'check-circle',
  current: 'clock',
  upcoming: null,
  failed: 'x-circle',
}

export function Timeline({ steps, label }: { steps: TimelineStep[]; label: string }) {
  return (
    <ol className="cl-timeline" aria-label={label}>
      {steps.map((step) => {
        const icon = icons[step.state]
        return (
          <li
            key={step.key}
            className={cx('cl-timeline__step', `cl-timeline__step--${step.state}`)}
            aria-current={step.state === 'current' ? 'step' : undefined}
          >
            <span className="cl-timeline__dot" aria-hidden="true">
              {icon ? <Icon name={icon} size={18} /> : null}
            </span>
            <div className="cl-timeline__body">
              <p className="cl-timeline__title">{step.title}</p>
              {step.detail ? <p className="cl-timeline__detail">{step.detail}</p> : null}
              {step.at ? <p className="cl-timeline__at">{step.at}</p> : null}
            </div>
          </li>
        )
      })}
    </ol>
  )
}
