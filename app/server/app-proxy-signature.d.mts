export const LOCAL_DEFAULTS: { secret: string; shop: string; pathPrefix: string };
export function appProxySignature(params: Iterable<[string, string]>, secret: string): string;
export function signedProxyQuery(options?: {
  shop?: string;
  secret?: string;
  pathPrefix?: string;
  loggedInCustomerId?: string;
  timestamp?: number;
  extra?: Iterable<[string, string]>;
}): URLSearchParams;
