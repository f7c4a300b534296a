export * from './money';
export * from './pricing';
export * from './order-status';
export * from './password';
export * from './catalog';
export * from './phone';
export * from './cart';
export * from './delivery';
