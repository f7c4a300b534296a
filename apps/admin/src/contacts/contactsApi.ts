import { ApiError } from '@shop/api-client';
import { shopClient } from '../shopApi';

/** Sends a reply to a contact message (emailed through the outbox, kept on the thread); answers the message. */
export async function replyToContact(id: string, text: string) {
  const { data, error, response } = await shopClient().POST('/api/admin/contacts/{id}/replies', {
    params: { path: { id } },
    body: { text },
  });
  if (data === undefined || !response.ok) throw ApiError.from(error, response.status);
  return data;
}
