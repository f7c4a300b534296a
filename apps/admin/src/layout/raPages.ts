// react-admin's pages for the rare cases (not found, access denied, an error, the auth callback) and its
// notifications: one chunk, loaded when one of them is first shown (AdminShell.tsx).
export { AccessDenied, AuthCallback, AuthenticationError, Error, NotFound, Notification } from 'react-admin';
