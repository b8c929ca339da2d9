// The parts of s3rver (an S3-compatible server for tests, shipped without types) the tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  import type { Server } from 'node:http';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    httpServer?: Server;
  }
}
