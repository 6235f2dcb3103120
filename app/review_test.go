package app

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"sitesift/sites"
	"sitesift/sites/store"
)

