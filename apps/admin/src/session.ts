/** The admin's token lives in this tab's sessionStorage only: closing the tab ends the back-office session. */
const KEY = 'shop.admin.token';

export const session = {
  get token(): string | null {
    return sessionStorage.getItem(KEY);
  },
  set(token: string) {
    sessionStorage.setItem(KEY, token);
  },
  clear() {
    sessionStorage.removeItem(KEY);
  },
};
