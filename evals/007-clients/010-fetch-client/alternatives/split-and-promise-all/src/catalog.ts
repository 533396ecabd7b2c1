export type Product = { sku: string; name: string; price: number };

export async function fetchProduct(siteUrl: string, sku: string): Promise<Product | null> {
  const res = await fetch(new URL(`/products/${sku}`, siteUrl));
  switch (res.status) {
    case 200:
      return (await res.json()) as Product;
    case 404:
      return null;
    default:
      throw new Error(`unexpected status ${res.status}`);
  }
}

export async function fetchPrices(siteUrl: string, skus: string[]): Promise<Record<string, number>> {
  const products = await Promise.all(skus.map((sku) => fetchProduct(siteUrl, sku)));
  return Object.fromEntries(products.flatMap((p) => (p ? [[p.sku, p.price]] : [])));
}
