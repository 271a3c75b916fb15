// `npm start` runs production unless NODE_ENV is set (in the environment or .env): development is
// asked for explicitly (`npm run dev`, `npm run local`). Imported by server.mjs before anything that
// reads NODE_ENV (React and Remix pick their builds from it when first loaded).
process.env.NODE_ENV ||= "production";
