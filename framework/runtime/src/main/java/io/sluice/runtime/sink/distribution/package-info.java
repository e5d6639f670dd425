/**
 * How a sink's rows reach its writers: {@link io.sluice.runtime.sink.distribution.WriterDistribution}
 * decides the mode ({@code distribution-mode}) and builds the keying in the sink's pre-write
 * topology.
 */
package io.sluice.runtime.sink.distribution;
