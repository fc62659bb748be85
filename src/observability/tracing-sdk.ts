// The OpenTelemetry SDK, loaded with a dynamic import by src/server.ts only when OTEL_EXPORTER_OTLP_ENDPOINT is
// set: a process without tracing never loads it. Spans are batched (OTEL_BSP_* tune the batches) and exported
// over OTLP/HTTP, as protobuf or JSON (OTEL_EXPORTER_OTLP_PROTOCOL).
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../config.ts';
import type { Tracing } from './tracing.ts';

export async function startTracing(
  config: TracingConfig,
  serviceVersion: string,
  warn: (msg: string) => void,
): Promise<Tracing> {
  // The SDK's own errors (a collector that refuses or does not respond) are otherwise silent.
  diag.setLogger(
    {
      error: (msg) => warn(`tracing: ${msg}`),
      warn: (msg) => warn(`tracing: ${msg}`),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const options = { url: `${config.endpoint}/v1/traces`, headers: config.headers };
  const { OTLPTraceExporter } =
    config.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': serviceVersion }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(options) })],
  });
  // Spans follow the request through awaits; a caller's traceparent header continues its trace.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    tracer: provider.getTracer('prode-gateway', serviceVersion),
    shutdown: () => provider.shutdown(),
  };
}
