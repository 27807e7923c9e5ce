/**
 * The annotation that marks this project's supported engine-neutral API ({@link
 * io.flinkcollation.api.PublicApi}). It depends on nothing, so that the spec layer can use it
 * without importing an engine.
 */
package io.flinkcollation.api;
