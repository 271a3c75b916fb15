#!/usr/bin/env bash
# One command from a fresh clone to a running app in local mode on http://localhost:3000:
# Node 22 (installed into .tools/ when the machine's Node is older), dependencies, database,
# demo shop, build, server. No Shopify store or Twilio account needed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node22.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm ci; fi
exec npm run local
