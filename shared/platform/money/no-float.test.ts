import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- the lint configuration is plain JavaScript without types
import { FLOAT_MONEY_STRICT, MONEY_FILES } from '../../../eslint.config.js';

/** "No float touches an amount" is a lint rule; this proves it is on for the money code and that it catches floats. */
const selectors = (FLOAT_MONEY_STRICT as { selector: string }[]).map((entry) => entry.selector);

describe('the no-float rule for money', () => {
  it('applies to the money module and the widget’s offer, and parseFloat/toFixed are refused everywhere else', async () => {
    const eslint = new ESLint();
    expect(MONEY_FILES).toEqual(['shared/platform/money/*.ts', 'widget/src/offer.ts']);
    for (const file of ['shared/platform/money/money.ts', 'widget/src/offer.ts']) {
      const config = (await eslint.calculateConfigForFile(file)) as { rules: Record<string, unknown[]> };
      expect(
        config.rules['no-restricted-syntax']!.slice(1).map((entry) => (entry as { selector: string }).selector),
        file,
      ).toEqual(selectors);
    }
    for (const file of ['shared/orders/order-view.ts', 'functions/quotes-create/handler.ts', 'scripts/local/demo-site.ts']) {
      const config = (await eslint.calculateConfigForFile(file)) as { rules: Record<string, unknown[]> };
      expect(JSON.stringify(config.rules['no-restricted-syntax']), file).toContain('toFixed');
    }
  });

  it('catches each way a float sneaks into an amount, and lets integer and BigInt arithmetic through', async () => {
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [
        { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': ['error', ...FLOAT_MONEY_STRICT] } },
      ],
    });
    const lint = async (code: string) => (await eslint.lintText(code, { filePath: 'money.ts' }))[0]!.messages.length;
    for (const bad of [
      'parseFloat("1.5")',
      'Number.parseFloat("1.5")',
      '(1.5).toFixed(2)',
      'x.toPrecision(3)',
      'Math.round(x * 100)',
      'Math.floor(x)',
      'const y = cents / 100',
    ]) {
      expect(await lint(bad), bad).toBe(1);
    }
    for (const good of ['const p = (scaled + 500_000n) / 1_000_000n', 'const s = a + b - c * 2', 'BigInt(x) * 10n ** 2n', 'Math.abs(x)']) {
      expect(await lint(good), good).toBe(0);
    }
  });
});
