import { DynamoDBServiceException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { AppError, ChangeRejectedError } from '../errors.js';
import { cancellationCodes, retryTransient, transactUnlessRefused, transactUnlessStale } from './transactions.js';

/**
 * A transaction DynamoDB refuses whole answers a plain exception, not a cancellation (found from
 * outside: an item reference whose index key passed 1,024 bytes made POST /orders and PATCH answer
 * 500). Each is the client error its cancellation would be, through both transaction helpers.
 */
const serviceError = (name: string, message: string) => new DynamoDBServiceException({ name, $fault: 'client', message, $metadata: {} });

function failingDoc(err: Error) {
  let sent = 0;
  const doc = {
    send: async () => {
      sent += 1;
      throw err;
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, sent: () => sent };
}

const appErrorOf = async (write: Promise<unknown>): Promise<AppError> => {
  const err: unknown = await write.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('a transaction refused whole', () => {
  it('reads a ValidationException as the one reason ValidationError', () => {
    expect(cancellationCodes(serviceError('ValidationException', 'One or more parameter values were invalid: Size limit exceeded'))).toEqual([
      'ValidationError',
    ]);
    expect(cancellationCodes(serviceError('ThrottlingException', 'Rate exceeded'))).toEqual(['ThrottlingError']);
    expect(cancellationCodes(new Error('socket hang up'))).toBeUndefined();
  });

  it('is 422 not_storable from transactUnlessRefused, sent once', async () => {
    const { doc, sent } = failingDoc(serviceError('ValidationException', 'One or more parameter values were invalid: Size limit exceeded'));
    const err = await appErrorOf(transactUnlessRefused(doc, []));
    expect([err.status, err.code]).toEqual([422, 'not_storable']);
    expect(sent()).toBe(1);
  });

  it('is 422 not_storable from transactUnlessStale, not a stale read to plan again', async () => {
    const { doc } = failingDoc(serviceError('ValidationException', 'Item size has exceeded the maximum allowed size'));
    const err = await appErrorOf(transactUnlessStale(doc, []));
    expect(err).not.toBeInstanceOf(ChangeRejectedError);
    expect([err.status, err.code]).toEqual([422, 'not_storable']);
  });

  it('is 429 when throttled past the SDK retries', async () => {
    const { doc } = failingDoc(serviceError('ProvisionedThroughputExceededException', 'throughput exceeded'));
    expect((await appErrorOf(transactUnlessRefused(doc, []))).status).toBe(429);
  });

  it('leaves a fault a fault', async () => {
    const { doc } = failingDoc(new Error('socket hang up'));
    await expect(transactUnlessRefused(doc, [])).rejects.toThrow('socket hang up');
  });

  it('still reads a cancellation per action', () => {
    const canceled = new TransactionCanceledException({
      message: 'canceled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, {}],
    });
    expect(cancellationCodes(canceled)).toEqual(['None', 'ConditionalCheckFailed', 'None']);
  });
});

describe('a throttled transaction under retryTransient', () => {
  it('is tried again, as the plain exception was', async () => {
    let sent = 0;
    const doc = {
      send: async () => {
        sent += 1;
        if (sent === 1) throw serviceError('ThrottlingException', 'Rate exceeded');
        return {};
      },
    } as unknown as DynamoDBDocumentClient;
    expect(await retryTransient(() => transactUnlessRefused(doc, []))).toBe(true);
    expect(sent).toBe(2);
  });
});
