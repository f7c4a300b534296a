import { CUSTOMER, shopHarness } from './shop-support';
jest.setTimeout(180000);
describe('shots', () => {
  const { open, api, login } = shopHarness();
  it('takes screenshots', async () => {
    const token = await login(CUSTOMER.email, CUSTOMER.password);
    const list = await api('/products?limit=1&sort=reviews');
    const id = list.products[0]._id;
    for (const lang of ['en', 'am'] as const)
      for (const [w, h] of [
        [390, 844],
        [1366, 800],
      ]) {
        const { page, close, errors } = await open('/', { lang, viewport: { width: w, height: h } });
        await page.screenshot({ path: `/tmp/look/home-${lang}-${w}.png`, fullPage: true });
        await page.goto(page.url().replace(/\/$/, '') + '/products');
        await page.screenshot({ path: `/tmp/look/cat-${lang}-${w}.png` });
        if (w === 390) {
          await page.getByRole('button', { name: lang === 'en' ? 'Filters' : 'ማጣሪያዎች' }).click();
          await page.waitForTimeout(300);
          await page.screenshot({ path: `/tmp/look/drawer-${lang}-${w}.png` });
          await page.goto(page.url().split('/products')[0] + '/products');
          await page.locator('.menu-toggle').click();
          await page.screenshot({ path: `/tmp/look/menu-${lang}-${w}.png` });
        }
        await page.goto(page.url().split('/products')[0] + '/product/' + id);
        await page.screenshot({ path: `/tmp/look/prod-${lang}-${w}.png`, fullPage: true });
        console.log(lang, w, errors);
        await close();
      }
    const { page, close } = await open('/', { token, viewport: { width: 390, height: 844 } });
    await page.locator('article.card').first().getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByTestId('cart-toast').waitFor();
    await page.screenshot({ path: `/tmp/look/toast-390.png` });
    await page.goto(page.url().replace(/\/$/, '') + '/checkout');
    await page.screenshot({ path: `/tmp/look/checkout-390.png`, fullPage: true });
    await close();
  });
});
