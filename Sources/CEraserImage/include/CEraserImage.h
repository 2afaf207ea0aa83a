// EraserKit's JPEG calls into libjpeg-turbo, wrapped so that a libjpeg error returns a code and a
// message instead of ending the process. libjpeg reports a fatal error by calling `error_exit`,
// which must not return; the only safe way out is a longjmp back into the C frame that called
// setjmp, which Swift cannot do. These wrappers own that frame.
#ifndef CERASERIMAGE_H
#define CERASERIMAGE_H

#include <stddef.h>
#include <stdint.h>

/// The size of the buffers the functions write an error message into (libjpeg's JMSG_LENGTH_MAX).
#define ERASER_IMAGE_MESSAGE_SIZE 200

/// Reads a JPEG's header: its full width and height.
/// Returns 0 on success, -1 with `message` filled on failure.
int eraser_jpeg_read_size(const uint8_t *data, size_t size, int *width, int *height,
                          char *message, size_t message_size);

/// Decodes a JPEG to 8-bit RGB, using DCT scaling (1/1, 1/2, 1/4 or 1/8) so that the long side
/// is the smallest still at least `min_long_side` (or the full size when the image is smaller).
/// `max_pixels` bounds the decoded width × height (0: no bound). On success `*pixels` is a
/// malloc'd buffer of width × height × 3 bytes (free it with `eraser_image_free`). CMYK and YCCK
/// images are converted to RGB (Adobe's inverted CMYK included).
/// Returns 0 on success, -1 with `message` filled on failure.
int eraser_jpeg_decode_rgb(const uint8_t *data, size_t size, int min_long_side, size_t max_pixels,
                           uint8_t **pixels, int *width, int *height,
                           char *message, size_t message_size);

/// Encodes 8-bit RGB pixels (width × height × 3 bytes, rows top to bottom) as a baseline JPEG of
/// `quality` (1–100). On success `*output` is a malloc'd buffer of `*output_size` bytes (free it
/// with `eraser_image_free`).
/// Returns 0 on success, -1 with `message` filled on failure.
int eraser_jpeg_encode_rgb(const uint8_t *pixels, int width, int height, int quality,
                           uint8_t **output, size_t *output_size,
                           char *message, size_t message_size);

/// Frees a buffer returned by the functions above.
void eraser_image_free(void *buffer);

#endif
