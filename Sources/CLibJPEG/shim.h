// libjpeg-turbo (Debian's libjpeg-dev): EraserKit decodes photos at reduced scale for thumbnails.
#include <stdio.h>
#include <stddef.h>
#include <jpeglib.h>
