/** The per-thread call context: attachments and deadline of the request being served, scoped outgoing attachments. */
package io.jupiter.rpc.context;
