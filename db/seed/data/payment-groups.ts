import type { PaymentGroupSeed } from './types.ts';

// Ids 1–6 are the six groups a person can pick in search (spec section 9); keep them stable.
export const paymentGroups: PaymentGroupSeed[] = [
  {
    id: 1,
    slug: 'bank-transfers',
    name: 'Bank transfers',
    description: 'Pay the seller by transferring money from your bank account to theirs.',
    sellDescription: 'Receive the payment as a transfer into your bank account.',
  },
  {
    id: 2,
    slug: 'cash-deposits',
    name: 'Cash deposits',
    description: "Pay with physical cash deposited into the seller's account or sent through a cash agent.",
    sellDescription: 'Receive cash deposited into your account or sent to you through a cash agent.',
  },
  {
    id: 3,
    slug: 'debitcredit-cards',
    name: 'Debit/credit cards',
    description: 'Pay the seller with a debit, credit or prepaid card.',
    sellDescription: "Receive the payment charged to the buyer's debit, credit or prepaid card.",
  },
  {
    id: 4,
    slug: 'digital-currencies',
    name: 'Digital currencies',
    description: 'Pay the seller with another cryptocurrency or a stablecoin.',
    sellDescription: 'Receive another cryptocurrency or a stablecoin in exchange.',
  },
  {
    id: 5,
    slug: 'gift-cards',
    name: 'Gift cards',
    description: 'Pay the seller with the code of a store, gaming or prepaid gift card.',
    sellDescription: 'Receive the code of a store, gaming or prepaid gift card as payment.',
  },
  {
    id: 6,
    slug: 'online-transfers',
    name: 'Online wallets',
    description: 'Pay through an online wallet, a mobile money account or a payment app.',
    sellDescription: 'Receive the payment in your online wallet, mobile money account or payment app.',
  },
  {
    id: 7,
    slug: 'cash-in-person',
    name: 'Cash in person',
    description: 'Meet the seller in a safe public place and pay in cash, face to face.',
    sellDescription: 'Meet the buyer in a safe public place and receive cash, face to face.',
  },
  {
    id: 8,
    slug: 'goods-and-services',
    name: 'Goods and services',
    description: 'Pay the seller with goods, services or mobile airtime you both agree on.',
    sellDescription: 'Receive goods, services or mobile airtime you both agree on as payment.',
  },
];
