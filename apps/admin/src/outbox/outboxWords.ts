type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A message's kind in words (`shop.outbox.templates.<name>`), never the internal template name. */
export function templateLabel(template: string | undefined, t: Translate): string {
  const key = `shop.outbox.templates.${template ?? ''}`;
  const text = template ? t(key) : key;
  return text && text !== key ? text : t('shop.outbox.otherTemplate');
}

/** The channel in words ('Email', 'SMS'); an unknown one as the generic message word. */
export function channelLabel(channel: string | undefined, t: Translate): string {
  const key = `shop.outbox.channels.${channel ?? ''}`;
  const text = channel ? t(key) : key;
  return text && text !== key ? text : t('shop.outbox.otherTemplate');
}
