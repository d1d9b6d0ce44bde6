import type { RatePpm } from './money.js';

/** A merchant using the API. Secrets are only ever held as hashes. */
export interface Client {
  client_id: string;
  name: string;
  public_key: string;
  secret_hash: string;
  rate_ppm: RatePpm;
  created: string;
}

/** What authentication and pricing need, readable in one lookup by public key. */
export type ClientCredentials = Pick<Client, 'client_id' | 'secret_hash' | 'rate_ppm'>;

export interface ClientStore {
  create(client: Client): Promise<void>;
  findByPublicKey(publicKey: string): Promise<ClientCredentials | undefined>;
  get(clientId: string): Promise<Client | undefined>;
  replaceSecretHash(clientId: string, secretHash: string): Promise<void>;
}
