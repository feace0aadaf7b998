import Glibc
import VipsImages

// Decodes photos for contactsd, which starts it: see HelperDecoder.
exit(ImageHelperService.run())
