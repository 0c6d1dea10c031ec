/** Something the host says inside the conversation (a cap on what was sent, an iteration limit, a stop). */
export function NoticeView({ level, text }: { level: 'info' | 'warning' | 'error'; text: string }) {
  return (
    <div className={`notice notice--${level}`} role={level === 'error' ? 'alert' : 'note'}>
      <span className="notice__icon" aria-hidden="true">
        {level === 'info' ? 'i' : '!'}
      </span>
      <span>{text}</span>
    </div>
  );
}
