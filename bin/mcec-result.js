#!/usr/bin/env node
const { loadCli, tuneV8 } = require('../dist/launch.cjs');

const { cli } = loadCli();
tuneV8();
cli.main(process.argv).then((status) => {
  process.exitCode = status;
});
