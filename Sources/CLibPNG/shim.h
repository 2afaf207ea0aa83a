// libpng (Debian's libpng-dev): EraserKit decodes PNG photos for thumbnails.
#include <png.h>
