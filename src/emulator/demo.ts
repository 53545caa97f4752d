/** The two demo partners every fresh emulator knows. */
export const DEMO_TOKENS: { store: 'demo-store-token'; aggregator: 'demo-aggregator-token' } = Object.freeze({
  store: 'demo-store-token',
  aggregator: 'demo-aggregator-token',
});

export interface Category {
  readonly categoryId: number;
  readonly categoryName: string;
}

/** The category directory, shared by all partners. */
export const CATEGORIES: readonly Category[] = Object.freeze([
  { categoryId: 1, categoryName: 'Продукты' },
  { categoryId: 2, categoryName: 'Электроника' },
  { categoryId: 3, categoryName: 'Одежда и обувь' },
  { categoryId: 4, categoryName: 'Красота и здоровье' },
  { categoryId: 5, categoryName: 'Дом и сад' },
  { categoryId: 6, categoryName: 'Детские товары' },
  { categoryId: 7, categoryName: 'Спорт и отдых' },
  { categoryId: 8, categoryName: 'Путешествия' },
  { categoryId: 9, categoryName: 'Рестораны и доставка еды' },
  { categoryId: 10, categoryName: 'Книги' },
  { categoryId: 11, categoryName: 'Аптеки' },
  { categoryId: 12, categoryName: 'Зоотовары' },
]);
