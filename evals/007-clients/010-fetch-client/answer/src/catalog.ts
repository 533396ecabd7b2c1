export type Product = { sku: string; name: string; price: number };

export async function fetchProduct(siteUrl: string, sku: string): Promise<Product | null> {
  const response = await fetch(`${siteUrl}/products/${sku}`);
  if (response.status === 404) {
    return null;
  }
  if (response.status !== 200) {
    throw new Error(`Fetching product ${sku} failed with status ${response.status}`);
  }
  return (await response.json()) as Product;
}

export async function fetchPrices(siteUrl: string, skus: string[]): Promise<Record<string, number>> {
  const prices: Record<string, number> = {};
  for (const sku of skus) {
    const product = await fetchProduct(siteUrl, sku);
    if (product !== null) {
      prices[sku] = product.price;
    }
  }
  return prices;
}
