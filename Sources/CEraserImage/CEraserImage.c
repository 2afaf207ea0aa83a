// libjpeg-turbo behind setjmp/longjmp: see include/CEraserImage.h.
#include "CEraserImage.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

/// libjpeg's error manager extended with the jump back to the wrapper and the message.
struct eraser_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    /// The encoder's output buffer and size (libjpeg's memory destination writes them); kept here,
    /// reached through a pointer, so they are still valid after a longjmp.
    unsigned char *buffer;
    unsigned long buffer_size;
};

/// libjpeg's fatal-error callback: keep the message and jump back to the wrapper.
static void eraser_error_exit(j_common_ptr cinfo) {
    struct eraser_error_manager *manager = (struct eraser_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, manager->message);
    longjmp(manager->jump, 1);
}

/// libjpeg's warning/trace output: silent (the default prints to stderr).
static void eraser_output_message(j_common_ptr cinfo) {
    (void)cinfo;
}

/// Fails the current call with `text`: jumps back to the wrapper's setjmp.
static void eraser_fail(struct eraser_error_manager *manager, const char *text) {
    snprintf(manager->message, sizeof manager->message, "%s", text);
    longjmp(manager->jump, 1);
}

static void eraser_copy_message(char *destination, size_t size, const char *text) {
    if (destination == NULL || size == 0) return;
    snprintf(destination, size, "%s", text);
}

static void eraser_install_errors(struct eraser_error_manager *manager) {
    jpeg_std_error(&manager->base);
    manager->base.error_exit = eraser_error_exit;
    manager->base.output_message = eraser_output_message;
    manager->message[0] = '\0';
    manager->buffer = NULL;
    manager->buffer_size = 0;
}

int eraser_jpeg_read_size(const uint8_t *data, size_t size, int *width, int *height,
                          char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct eraser_error_manager errors;
    if (data == NULL || size == 0) {
        eraser_copy_message(message, message_size, "empty input");
        return -1;
    }
    cinfo.err = NULL;
    eraser_install_errors(&errors);
    cinfo.err = &errors.base;
    if (setjmp(errors.jump)) {
        eraser_copy_message(message, message_size, errors.message);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    *width = (int)cinfo.image_width;
    *height = (int)cinfo.image_height;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int eraser_jpeg_decode_rgb(const uint8_t *data, size_t size, int min_long_side, size_t max_pixels,
                           uint8_t **pixels, int *width, int *height,
                           char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct eraser_error_manager errors;
    // volatile: these change between setjmp and a possible longjmp.
    uint8_t *volatile out = NULL;
    JSAMPLE *volatile row = NULL;
    *pixels = NULL;
    if (data == NULL || size == 0) {
        eraser_copy_message(message, message_size, "empty input");
        return -1;
    }
    eraser_install_errors(&errors);
    cinfo.err = &errors.base;
    if (setjmp(errors.jump)) {
        eraser_copy_message(message, message_size, errors.message);
        jpeg_destroy_decompress(&cinfo);
        free(out);
        free(row);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 14, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    unsigned int long_side = cinfo.image_width > cinfo.image_height ? cinfo.image_width : cinfo.image_height;
    unsigned int denominator = 8;
    while (denominator > 1 && (long_side + denominator - 1) / denominator < (unsigned int)min_long_side) {
        denominator /= 2;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = denominator;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_calc_output_dimensions(&cinfo);
    size_t out_width = cinfo.output_width, out_height = cinfo.output_height;
    if (max_pixels != 0 && out_width * out_height > max_pixels) {
        snprintf(errors.message, sizeof errors.message,
                 "the image is too large to decode (%zu x %zu pixels)", out_width, out_height);
        jpeg_destroy_decompress(&cinfo);
        eraser_copy_message(message, message_size, errors.message);
        return -1;
    }
    jpeg_start_decompress(&cinfo);
    int components = cinfo.output_components;
    if (components != 3 && components != 4) {
        eraser_fail(&errors, "unsupported colour space");
    }
    out = malloc(out_width * out_height * 3);
    row = malloc(out_width * (size_t)components);
    if (out == NULL || row == NULL) {
        eraser_fail(&errors, "out of memory");
    }
    // Adobe's APP14 marker says the CMYK samples are stored inverted (as Photoshop writes them).
    int inverted = 0;
    for (jpeg_saved_marker_ptr marker = cinfo.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 14 && marker->data_length >= 5 &&
            memcmp(marker->data, "Adobe", 5) == 0) {
            inverted = 1;
        }
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        size_t y = cinfo.output_scanline;
        JSAMPROW rows[1] = { row };
        if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) {
            eraser_fail(&errors, "the decoder returned no scanline");
        }
        uint8_t *target = out + y * out_width * 3;
        if (components == 3) {
            memcpy(target, row, out_width * 3);
        } else {
            for (size_t x = 0; x < out_width; x++) {
                unsigned int c = row[x * 4], m = row[x * 4 + 1], yy = row[x * 4 + 2], k = row[x * 4 + 3];
                if (!inverted) { c = 255 - c; m = 255 - m; yy = 255 - yy; k = 255 - k; }
                // Inverted samples: (255 - C) etc.; RGB = (255 - C)(255 - K) / 255 on plain samples.
                target[x * 3] = (uint8_t)((c * k + 127) / 255);
                target[x * 3 + 1] = (uint8_t)((m * k + 127) / 255);
                target[x * 3 + 2] = (uint8_t)((yy * k + 127) / 255);
            }
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    *pixels = out;
    *width = (int)out_width;
    *height = (int)out_height;
    return 0;
}

int eraser_jpeg_encode_rgb(const uint8_t *pixels, int width, int height, int quality,
                           uint8_t **output, size_t *output_size,
                           char *message, size_t message_size) {
    struct jpeg_compress_struct cinfo;
    struct eraser_error_manager errors;
    *output = NULL;
    *output_size = 0;
    if (pixels == NULL || width <= 0 || height <= 0 || quality < 1 || quality > 100) {
        eraser_copy_message(message, message_size, "invalid encoder arguments");
        return -1;
    }
    eraser_install_errors(&errors);
    cinfo.err = &errors.base;
    if (setjmp(errors.jump)) {
        eraser_copy_message(message, message_size, errors.message);
        jpeg_destroy_compress(&cinfo);
        free(errors.buffer);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &errors.buffer, &errors.buffer_size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[1] = { (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * (size_t)width * 3) };
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *output = errors.buffer;
    *output_size = errors.buffer_size;
    return 0;
}

void eraser_image_free(void *buffer) {
    free(buffer);
}
