import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { RemixServer } from "@remix-run/react";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isbot } from "isbot";
import { addDocumentResponseHeaders } from "~/shopify/app.server";
import { addressCheckJob } from "~/address-correction/address-correction.server";
import { pruneFinishedJobs } from "~/jobs/queue.server";
import { startJobWorker } from "~/jobs/worker.server";
import { orderTagsJob } from "~/orders/tag-jobs.server";
import { pruneDeliveries } from "~/shopify/webhook-deliveries.server";
import { clock } from "~/utils/clock.server";

// The background jobs this instance runs (and retries): every kind is declared by its domain.
export const JOB_KINDS = [orderTagsJob, addressCheckJob];
startJobWorker({ housekeeping: [() => pruneDeliveries(clock.now()), () => pruneFinishedJobs()] });

export const streamTimeout = 5000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  const userAgent = request.headers.get("user-agent");
  const callbackName = isbot(userAgent ?? "") ? "onAllReady" : "onShellReady";

  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [callbackName]: () => {
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
