import type { OrderStatus } from '@shop/shared';

/** The parts of the API's answers the buying pages read (money in ETB, as the API exposes it). */
export interface ProductView {
  _id: string;
  name: string;
  nameAm?: string;
  brand?: string;
  price: number;
  originalPrice?: number;
  images?: string[];
  stock: number;
}

export interface CartLine {
  product: ProductView;
  quantity: number;
}

export interface CartAnswer {
  success: boolean;
  products: CartLine[];
  total?: number;
  itemCount?: number;
}

export interface WishlistLine {
  _id?: string;
  product: ProductView;
  notifyOnSale?: boolean;
  notifyOnStock?: boolean;
}

export interface WishlistAnswer {
  success: boolean;
  products: WishlistLine[];
  notices?: { productId: string; type?: string; message: string; code?: string; params?: unknown }[];
}

export interface Address {
  id?: number;
  _id?: string;
  street: string;
  city: string;
  state: string;
  zipCode?: string;
  country: string;
  phone?: string;
  landmark?: string;
}

export interface OrderItemView {
  _id?: string;
  product: string | ProductView;
  name?: string;
  nameAm?: string;
  image?: string;
  quantity: number;
  priceAtPurchase: number;
}

export interface OrderView {
  _id: string;
  orderNumber?: string;
  status: OrderStatus;
  paymentStatus?: string;
  paymentMethod: string;
  shippingMethod?: string;
  createdAt: string;
  shippingAddress: Address;
  orderItems: OrderItemView[];
  subtotal: number;
  shippingCost: number;
  tax: number;
  pricesIncludeTax?: boolean;
  totalAmount: number;
  trackingNumber?: string;
}

export interface PaymentInit {
  provider: 'chapa' | 'test';
  txRef: string;
  checkoutUrl?: string;
  hostedForm?: { action: string; fields: Record<string, string | number> };
}

export interface UserView {
  _id: string;
  name: string;
  email: string;
  phone?: string;
  role: 'customer' | 'admin';
  addresses?: Address[];
}

export function productIdOf(item: OrderItemView): string {
  return typeof item.product === 'string' ? item.product : item.product._id;
}

export function itemName(item: OrderItemView, lang: 'en' | 'am'): string {
  if (typeof item.product !== 'string') {
    return (lang === 'am' && item.product.nameAm) || item.product.name || item.name || '';
  }
  return (lang === 'am' && item.nameAm) || item.name || '';
}
