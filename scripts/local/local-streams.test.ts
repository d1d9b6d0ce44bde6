import { unmarshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { repairEmptyMaps } from './local-streams.js';

/** DynamoDB Local's stream writes an empty map as a bare `{}`; the pump gives it as DynamoDB does. */
describe('empty maps in DynamoDB Local stream records', () => {
  it('become {"M":{}} wherever they sit (in maps, in lists), and everything else stays as it was', () => {
    const asDynamoDbLocalWritesIt = {
      headers: {},
      answer: { M: { headers: {}, status: { N: '204' }, nested: { M: { deeper: {} } } } },
      list: { L: [{}, { S: 'x' }, { M: {} }] },
      text: { S: 'kept' },
    };
    const repaired = Object.fromEntries(Object.entries(asDynamoDbLocalWritesIt).map(([name, value]) => [name, repairEmptyMaps(value)]));

    expect(() => unmarshall(asDynamoDbLocalWritesIt as never)).toThrow(/No value defined/);
    expect(unmarshall(repaired as never)).toEqual({
      headers: {},
      answer: { headers: {}, status: 204, nested: { deeper: {} } },
      list: [{}, 'x', {}],
      text: 'kept',
    });
  });
});
