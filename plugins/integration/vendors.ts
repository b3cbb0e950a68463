/** A kind of upstream the integration proxy knows (GET /api/integration/vendor). */
export interface IntegrationVendor {
  id: string;
  title: string;
  description: string;
  /** The endpoint a new instance of this vendor gets when none is given (null: it must be given). */
  defaultEndpoint: string | null;
  /** Headers an instance of this vendor usually adds (their values are stored encrypted). */
  headers: string[];
}

export const VENDOR_IDS = ['CONNECTOR', 'HTTP'] as const;
export type VendorId = (typeof VENDOR_IDS)[number];

/**
 * The vendors: Vela's connector (its API under /api/v2, reached with a Key, on the operator's allowlist
 * by default as `self:connector`), and any HTTP service. `connectorUrl` is the connector service's address
 * when it runs in this process (learned when the services listen), else null.
 */
export function vendors(connectorUrl: string | null): IntegrationVendor[] {
  return [
    {
      id: 'CONNECTOR',
      title: 'Vela connector',
      description:
        'the indexing connector service: /api/v2/integration/<id>/connector/status reaches its GET /api/v2/connector/status',
      defaultEndpoint: connectorUrl ? `${connectorUrl}/api/v2` : null,
      headers: ['Key'],
    },
    {
      id: 'HTTP',
      title: 'Generic HTTP',
      description:
        'any HTTP or HTTPS service; internal addresses only when the operator allows the host (runtime.network.allowHosts)',
      defaultEndpoint: null,
      headers: [],
    },
  ];
}
