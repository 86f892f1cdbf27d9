/// Thrown by a back channel to cut its connection for ``Fault/dropAfterFrames(_:)``: the
/// HTTP server then closes it without ending the chunked body.
struct ListenChannelDropped: Error {}
