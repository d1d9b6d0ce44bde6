import { describe, expect, it } from 'vitest';
import { percent } from './console-merchants.js';

describe("the console's premium rate", () => {
  it('is the API’s decimal fraction with its point moved two places, exactly', () => {
    expect(['0.085', '0.1', '0', '1', '0.0725', '0.10', '0.005', '1.5'].map(percent)).toEqual(['8.5%', '10%', '0%', '100%', '7.25%', '10%', '0.5%', '150%']);
  });
});
