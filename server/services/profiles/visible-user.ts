import { notFound } from '../errors.ts';
import type { ProfilesRepository } from './repository.ts';

/** A person with a public page, or 404. */
export async function visibleUser(repo: ProfilesRepository, username: string) {
  const user = await repo.userByName(username);
  // Banned people have no public page (their offers are gone too, offers.listForUser).
  if (!user || user.status === 'banned') throw notFound('User', 'username');
  return user;
}
