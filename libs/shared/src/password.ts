/** Password strength of docs/product.md §5: one point each for length >= 8, upper, lower, digit, symbol. */
export type PasswordStrengthLabel = 'very weak' | 'weak' | 'medium' | 'strong' | 'very strong';

export const MIN_PASSWORD_SCORE = 3;

export function passwordScore(password: string): number {
  const checks = [/.{8,}/su, /\p{Lu}/u, /\p{Ll}/u, /\p{Nd}/u, /[^\p{L}\p{Nd}\s]/u];
  return checks.filter((re) => re.test(password)).length;
}

export function passwordStrengthLabel(score: number): PasswordStrengthLabel {
  if (score <= 1) return 'very weak';
  if (score === 2) return 'weak';
  if (score === 3) return 'medium';
  if (score === 4) return 'strong';
  return 'very strong';
}

export function isStrongEnough(password: string): boolean {
  return passwordScore(password) >= MIN_PASSWORD_SCORE;
}
