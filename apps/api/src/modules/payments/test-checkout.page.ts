/** The test provider's checkout page and its result page: plain HTML, English and Amharic side by side. */

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${head}
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#fdf6ee;color:#3b2a20;display:flex;justify-content:center;padding:2rem}
main{background:#fff;border:3px dashed #c2410c;border-radius:12px;max-width:28rem;padding:1.5rem 2rem}
.banner{background:#c2410c;color:#fff;font-weight:700;padding:.4rem .8rem;border-radius:6px;text-align:center}
.amount{font-size:1.6rem;font-weight:700;margin:1rem 0}
button{font-size:1rem;padding:.6rem 1rem;border-radius:8px;border:0;cursor:pointer;margin:.3rem .3rem .3rem 0}
.ok{background:#15803d;color:#fff}.fail{background:#b91c1c;color:#fff}
small{color:#6b5b4f}
</style></head><body><main>${body}</main></body></html>`;
}

export function testCheckoutPage(info: {
  txRef: string;
  amount: number;
  currency: string;
  status: string;
  returnUrl: string;
}): string {
  const amount = `${info.amount.toFixed(2)} ${escapeHtml(info.currency)}`;
  const action = `/api/payments/test/${encodeURIComponent(info.txRef)}/complete`;
  const settled = info.status !== 'initialized';
  return page(
    'Test payment · የሙከራ ክፍያ',
    `<p class="banner">TEST PAYMENT — no money is charged<br>የሙከራ ክፍያ — ምንም ገንዘብ አይከፈልም</p>
<p>Payment reference · የክፍያ መለያ: <code>${escapeHtml(info.txRef)}</code></p>
<p class="amount">${amount}</p>
${
  settled
    ? `<p>This test payment is already settled. · ይህ የሙከራ ክፍያ ተጠናቋል።</p>
<p><a href="${escapeHtml(info.returnUrl)}">Back to the shop · ወደ ሱቁ ተመለስ</a></p>`
    : `<form method="post" action="${action}"><input type="hidden" name="outcome" value="success">
<button class="ok" type="submit">Simulate a successful payment · የተሳካ ክፍያ አስመስል</button></form>
<form method="post" action="${action}"><input type="hidden" name="outcome" value="failed">
<button class="fail" type="submit">Simulate a failed payment · ያልተሳካ ክፍያ አስመስል</button></form>
<p><small>Shown because the shop runs without Chapa keys. · ሱቁ ያለ Chapa ቁልፎች እየሰራ ስለሆነ ይታያል።</small></p>`
}`,
  );
}

export function testResultPage(result: { success: boolean; message: string; returnUrl: string }): string {
  const url = escapeHtml(result.returnUrl);
  return page(
    'Test payment · የሙከራ ክፍያ',
    `<p class="banner">TEST PAYMENT · የሙከራ ክፍያ</p>
<p class="amount">${escapeHtml(result.message)}</p>
<p>${result.success ? 'ክፍያው ተሳክቷል።' : 'ክፍያው አልተሳካም።'}</p>
<p><a href="${url}">Back to the shop · ወደ ሱቁ ተመለስ</a></p>`,
    `<meta http-equiv="refresh" content="2;url=${url}">`,
  );
}
