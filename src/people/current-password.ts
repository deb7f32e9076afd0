import { ValidationFailedException } from '../common/exceptions';
import { verifySecret } from '../common/secret-hash';
import type { User } from './user.entity';

/**
 * What a change of how a user signs in (their email, their password, two-factor) asks for: their current password.
 * A 422 on `current_password` when it is not theirs, or when they have none (a user of single sign-on).
 */
export async function checkCurrentPassword(user: User, password: string): Promise<void> {
  if (user.passwordHash === null || !(await verifySecret(password, user.passwordHash))) {
    throw ValidationFailedException.of('current_password', 'The password is incorrect.');
  }
}
