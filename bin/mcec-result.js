#!/usr/bin/env node
const { loadCli } = require('../dist/cli/launch.cjs');

loadCli().cli.main(process.argv).then((status) => {
  process.exitCode = status;
});
