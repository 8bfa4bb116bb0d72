#!/usr/bin/env node
import { loadCli } from '../dist/launch.js';

process.exitCode = await loadCli().cli.main(process.argv);
