/** The console's implementation: sessions, commands, password check, throttling, the HTTP endpoint. Not API. */
package io.jupiter.monitor.internal;
