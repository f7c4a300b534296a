/**
 * Normalises an Ethiopian mobile number to +2519XXXXXXXX or +2517XXXXXXXX. Accepts +2519..., 2519...,
 * 09..., 07... and 9.../7... with spaces or dashes; answers undefined for anything else.
 */
export function normaliseEthiopianPhone(input: string): string | undefined {
  const digits = input.replace(/[\s\-().]/g, '');
  const match = /^(?:\+?251|0)?([79]\d{8})$/.exec(digits);
  return match ? `+251${match[1]}` : undefined;
}
