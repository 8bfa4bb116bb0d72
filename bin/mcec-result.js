#!/usr/bin/env node
const { loadCli } = require('../dist/launch.cjs');

loadCli().cli.main(process.argv).then((status) => {
  process.exitCode = status;
});
