// Preloaded into the command line (NODE_OPTIONS=--import) by test/cli/on-demand-deps.test.ts:
// tells stderr when one of the on-demand packages is loaded (the bundle requires through
// Module._load), and that the hook runs at all.
import Module from 'node:module';
import process from 'node:process';

const ON_DEMAND = /^(ws|protobufjs|werift|@peculiar\/x509|@aws-sdk\/client-s3|@azure\/storage-blob|ssh2)(\/|$)/;
const load = Module._load;
Module._load = function (request, ...rest) {
  if (ON_DEMAND.test(request)) process.stderr.write(`on-demand package loaded: ${request}\n`);
  return load.call(this, request, ...rest);
};
process.stderr.write('on-demand hook active\n');
